import GlimpseAPITypes
import HTTPTypes
import OpenAPIRuntime

/// The API's operations as `openapi.yaml` declares them: the generated `APIProtocol` (in
/// GlimpseAPITypes), whose inputs and outputs are the spec's own types, so an operation that
/// stops following the spec stops compiling. The generated `registerHandlers` decodes each
/// request into its `Operations.*.Input` and encodes the `Output` (``OperationRegistrar`` says
/// where each is registered); errors are thrown as ``APIError`` and answered by
/// ``ErrorMiddleware``.
///
/// Three operations are plain Hummingbird routes, because the generator cannot express them:
/// `POST /v1/search` (an upload streamed under the body limit and upload policy, recognised by
/// its bytes whatever its Content-Type, or a form's one file part), `GET /metrics` (Prometheus'
/// own content type) and `GET /` (the page with its security headers). Their methods here are
/// never registered (``OperationRegistrar/plainRoutes``) and answer 500 if ever called.
///
/// The operations live beside the routes of their group: `SearchRoutes.swift`,
/// `EntityRoutes.swift`, `AdminRoutes.swift`, `OperationalRoutes.swift`.
struct GlimpseAPIHandler: APIProtocol {
    /// The running server's state (index, store, limits, workers).
    let state: ServerState

    /// The error of an operation that has a plain route instead (never registered).
    static func servedByPlainRoute(_ route: String) -> APIError {
        APIError(.internalServerError, "internal_error", "\(route) is served by its plain route, not the generated interface")
    }
}
