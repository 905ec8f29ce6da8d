// The UI tier's browser: Debian's `chromium` driven by playwright-core (Playwright's own download
// cannot reach its host from this project's machines).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_BIN = process.env.AIRSIGN_UI_CHROMIUM ?? '/usr/bin/chromium';

/** Installs Debian's chromium when it is missing (as root, or with sudo as on GitHub's runners). */
export function ensureChromium(say: (msg: string) => void): string {
	if (existsSync(CHROMIUM_BIN)) return CHROMIUM_BIN;
	const asRoot = process.getuid?.() === 0;
	const apt = (args: string[]) =>
		execFileSync(asRoot ? 'apt-get' : 'sudo', asRoot ? args : ['apt-get', ...args], {
			stdio: ['ignore', 'inherit', 'inherit'],
			env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
			timeout: 600_000,
		});
	say(`${CHROMIUM_BIN} missing: apt-get install chromium (once, about a minute)`);
	apt(['update']);
	apt(['install', '-y', '--no-install-recommends', 'chromium']);
	if (!existsSync(CHROMIUM_BIN))
		throw new Error(`apt-get installed chromium but ${CHROMIUM_BIN} is missing`);
	return CHROMIUM_BIN;
}

export async function launchChromium(): Promise<Browser> {
	return await chromium.launch({
		executablePath: CHROMIUM_BIN,
		headless: true,
		// --no-sandbox: Chromium's sandbox needs user namespaces, which root in a container lacks.
		args: ['--no-sandbox', '--disable-dev-shm-usage'],
	});
}
