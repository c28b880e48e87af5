@_exported import Catalog
