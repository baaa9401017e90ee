// The runner's results are MarbleReport's types: a client of MarbleSpec (the CLI, MarbleDiff,
// MarbleTesting) reads the reports it returns without importing the report module itself.
@_exported import MarbleReport
