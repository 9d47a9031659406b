/**
 * Resolves the `@cota/<lib>` aliases in the compiled tree: imported first by every cli entry point
 * (and by dist/cli/register-paths.js for scripts). The resolver lives in libs/service-kit, next to the
 * service bootstrap, so that the apps' entry points use it without importing cli/.
 */
import '../libs/service-kit/src/register-paths';
