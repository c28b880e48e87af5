import Testing
@testable import Catalog
