import Testing
@testable import Fingerprints
