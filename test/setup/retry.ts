// A test that fails is run once more before it counts as failed, and its first failure is printed
// either way (docs/testing.md, "A second try"). CI runs the suite on a loaded two-core machine where
// a rare wait outlives its limit; a failure that comes back on the second try is a real one.
jest.retryTimes(1, { logErrorsBeforeRetry: true });
