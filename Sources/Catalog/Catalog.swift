@_exported import Fingerprints
