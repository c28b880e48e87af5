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

    /// `deadline_ms` alone (the next-page request), the server's default when absent.
    /// - Throws: 400 `invalid_parameter`.
    static func deadline(_ request: Request, defaultDeadlineMilliseconds: Int) throws(APIError) -> Duration {
        let query = request.uri.queryParameters
        do {
            return try SearchRequest(parsing: Fields(deadlineMilliseconds: query.get(Parameter.deadline.queryName)),
                                     defaultDeadlineMilliseconds: defaultDeadlineMilliseconds).deadline
        } catch {
            throw .badRequest("invalid_parameter", error.message(naming: \.queryName))
        }
    }
}
