import Hummingbird

/// The API's routes. ``addRoutes(to:state:)`` is the one place routes are registered: the
/// operations of the generated interface (``GlimpseAPIHandler``, from `openapi.yaml`) and the
/// plain routes the generator cannot express (and the cluster's internal endpoint, which is
/// not part of the public API).
public enum GlimpseAPI {
    /// Registers every route on `router`. The middlewares (request log and metrics, JSON
    /// errors) are installed by ``GlimpseServer/makeRouter(state:)``.
    public static func addRoutes(to router: Router<GlimpseRequestContext>, state: ServerState) {
        SearchRoutes(state: state).add(to: router)
        OperationalRoutes(state: state).add(to: router)
        PageRoutes().add(to: router)
        PartitionRoutes(state: state).add(to: router)
        OperationRegistrar.register(GlimpseAPIHandler(state: state), on: router)
    }
}
