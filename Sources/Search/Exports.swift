@_exported import Catalog
@_exported import Fingerprints
@_exported import PixelBuffers
