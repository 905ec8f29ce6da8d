/**
 * Side-effect module: imported FIRST by every harness module, before anything from
 * n8n-core or @n8n/*. n8n's configuration classes (`InstanceSettingsConfig`,
 * `BinaryDataConfig`, `SsrfProtectionConfig`, ...) read `process.env` when the DI
 * container first instantiates them, so the environment must be in place before that.
 *
 * - `N8N_USER_FOLDER`: a fresh temp dir per test process, so n8n-core writes its
 *   `.n8n/config` (encryption key) and filesystem binary data there, never in ~/.n8n.
 * - `N8N_LOG_LEVEL`: n8n's logger is silent unless the caller set it (e.g. N8N_LOG_LEVEL=warn).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const HARNESS_USER_FOLDER: string = (() => {
	const existing = process.env.N8N_HARNESS_USER_FOLDER;
	if (existing) return existing;
	const dir = mkdtempSync(path.join(tmpdir(), 'n8n-harness-'));
	process.env.N8N_HARNESS_USER_FOLDER = dir;
	process.on('exit', () => {
		try {
			rmSync(dir, { recursive: true, force: true });
		} catch {
			// best effort
		}
	});
	return dir;
})();

process.env.N8N_USER_FOLDER = HARNESS_USER_FOLDER;
process.env.N8N_LOG_LEVEL ??= 'silent';
