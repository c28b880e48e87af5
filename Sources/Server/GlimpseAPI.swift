import Hummingbird

/// The API's routes. ``addRoutes(to:state:)`` is the one place routes are registered:
/// to serve something new (the web page at `GET /`), add one line there.
public enum GlimpseAPI {
    /// Registers every route on `router`. The middlewares (request log and metrics, JSON
    /// errors) are installed by ``GlimpseServer/makeRouter(state:)``.
    public static func addRoutes(to router: Router<GlimpseRequestContext>, state: ServerState) {
        OperationalRoutes(state: state).add(to: router)
        SearchRoutes(state: state).add(to: router)
        EntityRoutes(state: state).add(to: router)
        AdminRoutes(state: state).add(to: router)
        PageRoutes().add(to: router)
    }
}
