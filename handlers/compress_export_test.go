package handlers

// Compress is the compression middleware at a given level, for the tests and
// benchmarks of package handlers_test.
var Compress = compress

// GzipPage is how a whole page is compressed, for the tests of package
// handlers_test.
var GzipPage = gzipPage
