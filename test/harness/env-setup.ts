/**
 * Imported first by every harness module: n8n's configuration classes read `process.env` when DI
 * first builds them. n8n's user folder (encryption key, binary data) is a temp folder per test
 * process; its logger is silent unless N8N_LOG_LEVEL is set.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

if (!process.env.N8N_HARNESS_USER_FOLDER) {
	const dir = mkdtempSync(path.join(tmpdir(), 'n8n-harness-'));
	process.env.N8N_HARNESS_USER_FOLDER = dir;
	process.on('exit', () => {
		try {
			rmSync(dir, { recursive: true, force: true });
		} catch {
			// best effort: a failed clean-up must not fail the run
		}
	});
}

process.env.N8N_USER_FOLDER = process.env.N8N_HARNESS_USER_FOLDER;
process.env.N8N_LOG_LEVEL ??= 'silent';
