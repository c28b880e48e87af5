import Testing
@testable import PixelBuffers
