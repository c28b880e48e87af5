@_exported import PixelBuffers
