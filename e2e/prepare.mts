// What the real-n8n tiers install, once, so that `npm run check` can run them side by side
// (scripts/check.mts starts this beside the unit stage, its output in a log):
//   the Debian packages: chromium (UI tier), PostgreSQL, Redis, openssl (queue mode, registry route)
//   both pinned n8n versions (e2e/n8n-profiles.mts), side by side
//   the local registry, Verdaccio (the UI tier and queue mode both start one)
// Each is a fast no-op when already there; two tiers installing one at once would break each other.
//
//   npx tsx e2e/prepare.mts
import { N8N_PROFILES, installN8n, seconds } from './install-n8n.mts';
import { ensureVerdaccio } from './lib/registry.mts';
import { ensureServerPackages } from './lib/services.mts';
import { ensureChromium } from './ui/chromium.mts';

const t00 = Date.now();
const say = (msg: string) => process.stdout.write(`[prepare] ${msg}\n`);

try {
	// apt first, one at a time: both hold dpkg's lock (and ensureChromium blocks while it runs)
	ensureChromium(say);
	const installed = await ensureServerPackages({ log: say });
	if (installed.length) say(`installed with apt-get: ${installed.join(', ')}`);
	await Promise.all([
		...Object.keys(N8N_PROFILES).map(async (profile) => {
			const t0 = Date.now();
			const result = await installN8n({ profile });
			// read by scripts/check.mts for its summary
			say(
				`${result.skipped ? 'present' : 'installed'}: ${N8N_PROFILES[profile as '1' | '2'].label} in ${seconds(Date.now() - t0)}`,
			);
		}),
		ensureVerdaccio().then(() => say('Verdaccio ready')),
	]);
	say(`everything ready in ${seconds(Date.now() - t00)}`);
} catch (err) {
	process.stderr.write(`[prepare] FAILED: ${err.stack ?? err}\n`);
	process.exit(1);
}
