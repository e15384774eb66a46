package generator

// For the tests of package generator_test.
var (
	// TestModule is testModule.
	TestModule = testModule
	// WriteTestFile is writeTestFile.
	WriteTestFile = writeTestFile
)
