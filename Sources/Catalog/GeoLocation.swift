/// A point on Earth in WGS-84 degrees.
public struct GeoLocation: Sendable, Hashable, Codable {
    /// Latitude in degrees, −90…90 (north positive).
    public var latitude: Double
    /// Longitude in degrees, −180…180 (east positive).
    public var longitude: Double

    /// Creates a location; the caller checks the ranges (``isValid``), sources reject bad ones.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Whether both coordinates are finite and within their ranges.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && (-90...90).contains(latitude) && (-180...180).contains(longitude)
    }
}
