/**
 * Dual-package guard. n8n-workflow ships an ESM build (`import` condition) and a CJS
 * build (`require`). n8n-core is CommonJS and `require`s the CJS build; vitest, left
 * alone, hands test code (and the node code it imports) the ESM build. Two copies of
 * every class then exist and `instanceof NodeApiError`, `instanceof ExecutionBaseError`
 * ... checks silently fail across the boundary, which real n8n never does (a
 * community node's compiled `require('n8n-workflow')` gets n8n's own copy).
 *
 * This module makes every module loaded after it through vitest see the CJS copy. It
 * must be imported before anything that imports `n8n-workflow`; `test/harness/index.ts`
 * imports it first, so import the harness first in a test file.
 * (The permanent fix is a `resolve.alias` of 'n8n-workflow' to its CJS entry in
 * vitest.config.ts.)
 */
import { vi } from 'vitest';

import { engineRequire } from './engine';

vi.mock('n8n-workflow', () => engineRequire('n8n-workflow') as Record<string, unknown>);

/** The CJS n8n-workflow, the copy n8n-core uses. */
export const n8nWorkflowCjs = engineRequire('n8n-workflow') as typeof import('n8n-workflow');
