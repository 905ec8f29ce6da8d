/**
 * The README's "Start here" against the banner `npm run dev` prints (scripts/dev/banner.mts, with the
 * example workflows and two pending demo sessions): its items, curls, workflows and poll times.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');
const at = (file: string) => JSON.stringify(path.join(ROOT, file));

const PRINT_BANNER = `
import { procs } from ${at('scripts/dev/processes.mts')};
import { banner, demoCalls } from ${at('scripts/dev/banner.mts')};
import { loadExamples } from ${at('e2e/lib/fixtures.mts')};
procs.sandbox = { url: 'http://127.0.0.1:8787' };
procs.model = { baseUrl: 'http://127.0.0.1:8788/v1' };
const signers = (...emails) => emails.map((email) => ({ email, status: 'sent' }));
const pending = [
	{ sessionId: 's-1', name: 'Lease', status: 'pending', recipients: signers('a@example.com', 'b@example.com') },
	{ sessionId: 's-2', name: 'NDA', status: 'pending', recipients: signers('c@example.com') },
];
banner('http://127.0.0.1:5678', {}, demoCalls(pending), Object.values(loadExamples()));
`;

const printed = execFileSync(
	process.execPath,
	['--import', 'tsx', '--input-type=module', '-e', PRINT_BANNER],
	{ cwd: ROOT, encoding: 'utf8' },
);
/** The banner's numbered items, by number: their lines. */
const items = new Map<number, string>();
for (const part of printed.split(/^ {2}(?=\d\. )/m).slice(1))
	items.set(Number(part.slice(0, part.indexOf('.'))), part);
/** The URLs of an item's curl lines, in order. */
const curls = (n: number) =>
	[...(items.get(n) ?? '').matchAll(/curl -s(?: -X \w+)? '?(\S+?)'?(?: |$)/gm)].map((m) => m[1]);

const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const startHere = readme.slice(readme.indexOf('## Start here'), readme.indexOf('## Install'));

describe("README's Start here and the banner of npm run dev", () => {
	it('the number of items the README announces is what the banner numbers', () => {
		const [, count] = /prints (\w+) numbered items/.exec(startHere)!;
		const words = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
		expect([...items.keys()]).toEqual(
			words.slice(0, words.indexOf(count) + 1).map((_, i) => i + 1),
		);
	});

	it("each curl the README names is that item's, as it names it", () => {
		const named = [...startHere.matchAll(/[Ii]tem (\d)'s (first )?`curl` \(`…(\/\w+)`\)/g)];
		expect(named.map((m) => m[0])).toHaveLength(2);
		for (const [text, item, first, ending] of named) {
			const urls = curls(Number(item));
			expect(urls.length, text).toBeGreaterThan(0);
			if (!first) expect(urls, `${text}: the item's only curl`).toHaveLength(1);
			expect(urls[0], text).toMatch(new RegExp(`${ending}$`));
		}
	});

	it('the workflows the README opens or publishes are those of the items it names', () => {
		const steps = [...startHere.matchAll(/^\d\. Items? (\d)(?: and (\d))?: (.*(?:\n {3}.*)*)/gm)];
		expect(steps).toHaveLength(2);
		for (const [, a, b, text] of steps) {
			const names = [...text.matchAll(/"(AirSign: [^"]+)"/g)].map((m) => m[1]);
			expect(names).toHaveLength(b ? 2 : 1);
			expect(items.get(Number(a))).toContain(names[0].replace(/\s+/g, ' '));
			if (b) expect(items.get(Number(b))).toContain(names[1].replace(/\s+/g, ' '));
		}
	});

	it("the triggers' poll times and their requests an hour, as the banner says them", () => {
		const [, minutes, spent, budget] =
			/polls every (\d+) minutes: (\d+) of AirSign's (\d+) List Sessions/.exec(
				startHere.replace(/\s+/g, ' '),
			)!;
		const banner = printed.replace(/\s+/g, ' ');
		expect(banner).toContain(`it polls every ${minutes} minutes`);
		expect(banner).toContain(`This trigger polls every ${minutes} minutes`);
		expect(banner).toContain(`the two spend ${spent} of the ${budget} List Sessions requests`);
	});

	it('what npm run dev starts, on the ports the banner prints', () => {
		for (const url of ['http://127.0.0.1:8787', 'http://127.0.0.1:8788', 'http://127.0.0.1:5678']) {
			expect(startHere).toContain(`<${url}>`);
			expect(printed).toContain(url);
		}
	});
});
