/**
 * One n8n-workflow: n8n-core `require`s its CommonJS build, vitest would hand the tests its ES
 * build, and every `instanceof NodeApiError` across the two copies would fail. Modules loaded
 * after this one get the CommonJS copy (index.ts imports it first).
 */
import { vi } from 'vitest';

import { engineRequire } from './engine';

vi.mock('n8n-workflow', () => engineRequire('n8n-workflow') as Record<string, unknown>);
