package handlers

// Compress is the compression middleware at a given level, for the tests and
// benchmarks of package handlers_test.
var Compress = compress
