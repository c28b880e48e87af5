import PixelBuffers
import Search
import Testing

/// The one search request of `glimpse query`, `glimpse match` and `POST /v1/search`: its
/// limits, its region grammar and its errors in each front door's words.
@Suite struct SearchRequestTests {
    func refusal(_ fields: SearchRequest.Fields) -> SearchRequestError? {
        do { _ = try SearchRequest(parsing: fields); return nil } catch { return error }
    }

    @Test func defaultsAreTenResultsInFiveHundredMillisecondsOverTheWholeImage() throws {
        let request = try SearchRequest(parsing: .init())
        #expect(request == (try SearchRequest()))
        #expect(request.region == nil && request.labels.isEmpty && request.pageSize == 10 && request.deadline == .milliseconds(500) && !request.exact)
        #expect(try SearchRequest(parsing: .init(), defaultDeadlineMilliseconds: 250).deadline == .milliseconds(250))
    }

    @Test func everyFieldIsReadFromItsText() throws {
        let request = try SearchRequest(parsing: .init(region: " 4, 211,712 ,332", labels: "snow, mountain,, ", pageSize: "1000",
                                                       deadlineMilliseconds: "60000", exact: "true"))
        #expect(request.region == .pixels(PixelRect(x: 4, y: 211, width: 712, height: 332)))
        #expect(request.labels == ["snow", "mountain"])
        #expect(request.pageSize == 1000 && request.deadline == .seconds(60) && request.exact)
        let fractions = try SearchRequest(parsing: .init(regionFraction: "0.1,0.2,0.5,0.5"))
        #expect(fractions.region == .fractions(x: 0.1, y: 0.2, width: 0.5, height: 0.5))
    }

    @Test func eachLimitIsRefusedNamingItsParameter() {
        let cases: [(SearchRequest.Fields, SearchRequest.Parameter)] = [
            (.init(pageSize: "0"), .pageSize), (.init(pageSize: "1001"), .pageSize), (.init(pageSize: "ten"), .pageSize),
            (.init(deadlineMilliseconds: "0"), .deadline), (.init(deadlineMilliseconds: "60001"), .deadline),
            (.init(deadlineMilliseconds: "99999999999999999999"), .deadline),
            (.init(labels: (0..<33).map { "l\($0)" }.joined(separator: ",")), .labels),
            (.init(labels: String(repeating: "x", count: 65)), .labels),
            (.init(region: "1,2,3"), .region), (.init(region: "-1,0,10,10"), .region), (.init(region: "0,0,0,10"), .region),
            (.init(region: "0,0,10,2000000"), .region), (.init(region: "a,b,c,d"), .region),
            (.init(regionFraction: "0,0,2,1"), .regionFraction), (.init(regionFraction: "0,0,0,1"), .regionFraction),
            (.init(regionFraction: "nan,0,1,1"), .regionFraction),
            (.init(region: "0,0,1,1", regionFraction: "0,0,1,1"), .region),
            (.init(exact: "yes"), .exact), (.init(exact: "1"), .exact),
            (.init(minimumScore: "1.01"), .minimumScore), (.init(minimumScore: "-0.1"), .minimumScore), (.init(minimumScore: "nan"), .minimumScore),
            (.init(minimumScore: "inf"), .minimumScore), (.init(minimumScore: "0.4x"), .minimumScore), (.init(minimumScore: ""), .minimumScore),
            (.init(minimumScore: "0." + String(repeating: "1", count: 60)), .minimumScore),
        ]
        for (fields, parameter) in cases {
            let error = refusal(fields)
            #expect(error?.parameter == parameter, "\(fields)")
        }
    }

    @Test func aMinimumScoreIsANumberFromZeroToOneAndAbsentByDefault() throws {
        #expect(try SearchRequest(parsing: .init()).minimumScore == nil)
        for (text, value) in [("0", 0.0), ("0.35", 0.35), ("1", 1.0), ("1e-1", 0.1), (".5", 0.5)] {
            #expect(try SearchRequest(parsing: .init(minimumScore: text)).minimumScore == value, "\(text)")
        }
        let error = try #require(refusal(.init(minimumScore: "1.5")))
        #expect(error.message(naming: \.optionName) == "--min-score must be a number in 0…1 such as 0.35; got '1.5'")
        #expect(error.message(naming: \.queryName) == "min_score must be a number in 0…1 such as 0.35; got '1.5'")
    }

    @Test func messagesNameTheParameterAsEachFrontDoorDoes() throws {
        let error = try #require(refusal(.init(pageSize: "1001")))
        #expect(error.message(naming: \.optionName) == "--page-size must be a whole number in 1…1000; got '1001'")
        #expect(error.message(naming: \.queryName) == "page_size must be a whole number in 1…1000; got '1001'")
        let both = try #require(refusal(.init(region: "0,0,1,1", regionFraction: "0,0,1,1")))
        #expect(both.message(naming: \.optionName).hasPrefix("--region, --region-fraction: give either"))
        let negative = try #require(refusal(.init(region: "-5,0,10,10")))
        #expect(negative.message(naming: \.queryName) == "region -5,0,10,10: x and y must be 0 or more (pixels from the top-left corner)")
    }

    @Test func theRegionGrammarIsTheDecodersOwn() throws {
        #expect(try DecodeOptions.Region(pixelsText: "4,211,712,332") == .pixels(PixelRect(x: 4, y: 211, width: 712, height: 332)))
        #expect(throws: RegionSyntaxError.self) { try DecodeOptions.Region(pixelsText: "4,211,712") }
        #expect(try DecodeOptions.Region(fractionsText: "0,0,1,1") == .fractions(x: 0, y: 0, width: 1, height: 1))
        #expect(throws: RegionSyntaxError.self) { try DecodeOptions.Region(fractionsText: "0,0,1.5,1") }
    }
}
