// The personas module's face: what other modules may use. Nothing else of personas/ is imported from outside it.

export { createPersonas, personasUsed } from './personas.ts';
export { personaOfAgent } from './store.ts';
