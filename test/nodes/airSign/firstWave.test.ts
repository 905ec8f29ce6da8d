/**
 * Issue 50: a run of many items far from AirSign. The rest of the run goes at the first answer
 * and waits a whole round trip for its own, so the first wave holds half of a run of more than
 * 2 × FIRST_WAVE items (never more than Items at Once); and the in-memory upload's check of its
 * base64 decides as the former regex scan did.
 */
import '../../harness';

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { isCanonicalBase64 } from '../../../nodes/AirSign/actions/file/uploadSource';
import { FIRST_WAVE } from '../../../nodes/AirSign/helpers/constants';
import { RequestPool } from '../../../nodes/AirSign/transport/pool';
import { apiRequests, runAirSign, useAirSign } from './helpers';

const ctx = useAirSign();

/** Turns granted at once, with no answer yet. */
async function turnsBeforeAnswer(pool: RequestPool, asked: number): Promise<number> {
	let through = 0;
	for (let item = 0; item < asked; item++) void pool.turn(item, 0).then(() => through++);
	await new Promise((resolve) => setImmediate(resolve));
	return through;
}

describe('the first wave', () => {
	it.each([
		[50, 1000, FIRST_WAVE],
		[2 * FIRST_WAVE, 1000, FIRST_WAVE],
		[1000, 1000, 500],
		[1001, 1000, 501],
	])('%s items, Items at Once %s: %s requests before any answer', async (items, atOnce, wave) => {
		expect(await turnsBeforeAnswer(new RequestPool(atOnce, items), items)).toBe(
			Math.min(wave, items),
		);
	});

	it('1,000 Sends with the defaults: half go before any answer, the rest once one has come; every item sent once, in order', async () => {
		const recipients = [{ name: 'Ann Signer', email: 'ann@example.com' }];
		const sessions = Array.from({ length: 1000 }, (_, i) =>
			ctx.sandbox.createSession({ name: `Draft ${i}`, recipients }),
		);
		// Every Send waits at the sandbox until 500 have arrived: a node that sent fewer before
		// any answer would hang here (no timing involved).
		let waiting: Array<() => void> | undefined = [];
		const off = ctx.sandbox.onRequest(async ({ path }) => {
			if (!path.endsWith('/Send') || !waiting) return;
			await new Promise<void>((resolve) => {
				waiting!.push(resolve);
				if (waiting!.length < 500) return;
				const released = waiting!;
				waiting = undefined;
				for (const release of released) release();
			});
		});
		try {
			const result = await runAirSign(
				ctx,
				{ resource: 'session', operation: 'send', sessionId: '={{ $json.id }}' },
				{ input: sessions.map((s) => ({ json: { id: s.sessionId } })) },
			);
			expect(result.error).toBeUndefined();
			expect(result.items.map((i) => i.json.sessionId)).toEqual(sessions.map((s) => s.sessionId));
		} finally {
			off();
		}
		expect(apiRequests(ctx.sandbox)).toHaveLength(1000);
		expect(ctx.sandbox.outbox).toHaveLength(1000);
	});
});

describe('upload from memory: is the base64 canonical?', () => {
	/** The check before issue 50: a scan by regex. */
	const byRegex = (text: string) => {
		if (text.length % 4 !== 0 || /[^A-Za-z0-9+/=]/.test(text)) return false;
		const padding = text.indexOf('=');
		return padding === -1 || (padding >= text.length - 2 && /^=+$/.test(text.slice(padding)));
	};
	const base64 = fc.uint8Array({ maxLength: 40 }).map((b) => Buffer.from(b).toString('base64'));
	const characters = 'AQgw/+9z=-_ \r\n.é%'.split('');

	it.each([
		['', true],
		['QUJD', true],
		['QUI=', true],
		['QQ==', true],
		['QQ=', false],
		['Q===', false],
		['QQ==QUJD', false],
		['QU=D', false],
		['QUJ-', false],
		['QUJ_', false],
		['QUJD\r\nQUJD', false],
		['data:application/pdf;base64,QUJD', false],
		['QUJé', false],
	])('%j: %s', (text, canonical) => {
		expect(isCanonicalBase64(text)).toBe(canonical);
		expect(byRegex(text)).toBe(canonical);
	});

	it('decides as the regex did: base64, base64 with one character changed, and any text', () => {
		const changed = fc
			.tuple(base64, fc.nat(60), fc.constantFrom(...characters))
			.map(([text, at, character]) => text.slice(0, at) + character + text.slice(at + 1));
		const anyText = fc
			.array(fc.constantFrom(...characters), { maxLength: 40 })
			.map((a) => a.join(''));
		fc.assert(
			fc.property(
				fc.oneof(base64, changed, anyText, fc.string({ maxLength: 24 })),
				(text) => isCanonicalBase64(text) === byRegex(text),
			),
			{ numRuns: 2000 },
		);
	});

	it('over a text longer than one step (64 KiB of base64): a character off in the last step is found', () => {
		const text = Buffer.alloc(200_001, 7).toString('base64');
		expect(isCanonicalBase64(text)).toBe(true);
		expect(isCanonicalBase64(`${text.slice(0, -5)}\n${text.slice(-4)}`)).toBe(false);
		expect(isCanonicalBase64(`${text.slice(0, -1)}-`)).toBe(false);
	});
});
