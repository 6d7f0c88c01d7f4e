// The http module's face: what other modules may use. Nothing else of http/ is imported from outside it.

export { buildApp } from './app.ts';
export { accountOf } from './auth.ts';
export { parseJsonBody } from './json-body.ts';
export { createLogger } from './logger.ts';
export { limiter, registerRateLimits } from './rate-limit.ts';
export { ContentText, NullableTimestamp, PageQuery, Timestamp, Uuid, bearer, problems } from './schemas.ts';
export { clearedSessionCookies, csrfTokenFor, originAllowed, sessionCookie } from './session-cookie.ts';
export { validationProblem, validatorCompiler } from './validation.ts';
