import Hummingbird
import Search

/// 200 answers with a wire-format JSON body (``WireJSON``).
enum JSONResponse {
    /// `value` as `application/json` with `status`. O(size of the value).
    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: WireJSON.bytes(value))))
    }
}
