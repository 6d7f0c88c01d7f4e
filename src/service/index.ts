// The service module's face: what other modules may use. Nothing else of service/ is imported from outside it.

export { createService } from './service.ts';
