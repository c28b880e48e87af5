import Hummingbird
import Search

extension SearchRequest {
    /// The query parameters of the search endpoints read into the one ``SearchRequest``:
    /// `region`, `region_fraction`, `labels`, `page_size`, `deadline_ms`, `exact`, `min_score`, each at
    /// most once.
    ///
    /// - Throws: 400 `invalid_parameter` naming the parameter (as the query string names it)
    ///   and what is wrong with it.
    init(_ request: Request, defaultDeadlineMilliseconds: Int) throws(APIError) {
        let query = request.uri.queryParameters
        for parameter in Parameter.allCases where query.getAll(parameter.queryName).count > 1 {
            throw .badRequest("invalid_parameter", "\(parameter.queryName) is given \(query.getAll(parameter.queryName).count) times; give it once")
        }
        func text(_ parameter: Parameter) -> String? { query.get(parameter.queryName) }
        let fields = Fields(region: text(.region), regionFraction: text(.regionFraction), labels: text(.labels), pageSize: text(.pageSize),
                            deadlineMilliseconds: text(.deadline), exact: text(.exact),
                            minimumScore: text(.minimumScore))
        do {
            try self.init(parsing: fields, defaultDeadlineMilliseconds: defaultDeadlineMilliseconds)
        } catch {
            throw .badRequest("invalid_parameter", error.message(naming: \.queryName))
        }
    }
}

extension SearchRequest {
    /// A search's parameters as the generated interface decoded them from the query string
    /// (`labels`, `page_size`, `deadline_ms`, `exact`, `min_score`), validated by the one
    /// validation every front door shares.
    ///
    /// - Throws: 400 `invalid_parameter`, naming the parameter.
    init(labels: String?, pageSize: Int?, deadlineMilliseconds: Int?, exact: Bool?, minimumScore: Double?,
         defaultDeadlineMilliseconds: Int) throws(APIError) {
        let fields = Fields(labels: labels, pageSize: pageSize.map(String.init), deadlineMilliseconds: deadlineMilliseconds.map(String.init),
                            exact: exact.map(String.init), minimumScore: minimumScore.map { String($0) })
        do {
            try self.init(parsing: fields, defaultDeadlineMilliseconds: defaultDeadlineMilliseconds)
        } catch {
            throw .badRequest("invalid_parameter", error.message(naming: \.queryName))
        }
    }

    /// The `deadline_ms` the generated interface decoded, or the server's default.
    ///
    /// - Throws: 400 `invalid_parameter`.
    static func deadline(milliseconds: Int?, defaultDeadlineMilliseconds: Int) throws(APIError) -> Duration {
        try SearchRequest(labels: nil, pageSize: nil, deadlineMilliseconds: milliseconds, exact: nil, minimumScore: nil,
                          defaultDeadlineMilliseconds: defaultDeadlineMilliseconds).deadline
    }
}
