import Catalog
import Foundation
import GlimpseAPITypes
import GoldenFiles
import HTTPTypes
@_spi(Generated) import OpenAPIRuntime
import Search
@testable import Server
import Testing

/// The server's own bodies, byte for byte, against the wire format's golden files
/// (`testdata/wire/`): the error body every refusal carries, encoded as ``APIError`` does, and
/// the admin answer, encoded by the generated interface with the server's settings.
@Suite struct WireFormatGoldenTests {
    @Test func theErrorBodyIsTheGoldenOne() throws {
        let body = Components.Schemas.ErrorBody(error: "not_found", message: "glimpse://landmark/nope: no such landmark")
        try GoldenFile("error.json").check(WireJSON.line(body))
    }

    @Test func theAdminAnswersAreTheGoldenOnes() async throws {
        let removal = Removal(id: 3, reason: .archivedByUser, date: Date(timeIntervalSince1970: 0),
                              entities: [EntityReference(kind: .landmark, id: "food/apricot")], isUndone: false)
        try GoldenFile("removal.json").check(try await Self.generated(Components.Schemas.RemovalAnswer(removal)))
        try GoldenFile("removal-none.json").check(try await Self.generated(Components.Schemas.RemovalAnswer(nil)))
    }

    /// `value` as the generated operations send it.
    static func generated(_ value: some Encodable & Sendable) async throws -> String {
        var fields = HTTPFields()
        let body = try Converter(configuration: OperationRegistrar.configuration)
            .setResponseBodyAsJSON(value, headerFields: &fields, contentType: "application/json; charset=utf-8")
        return try await String(collecting: body, upTo: 1 << 20)
    }
}
