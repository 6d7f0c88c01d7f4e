// The hook module's face: what other modules may use. Nothing else of hook/ is imported from outside it.

export { hookCommand } from './claude-code.ts';
