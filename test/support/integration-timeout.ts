// Integration suites drive real servers (and a browser) on a shared 2-core machine. Jest takes
// `testTimeout` only from the global configuration, never from a project's, so the integration
// project sets its own here.
jest.setTimeout(120_000);
