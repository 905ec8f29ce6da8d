import { describe, expect, it } from 'vitest';

import {
	TERMINAL_MEMORY_MS,
	newMemory,
	readMemory,
	sessionKey,
	storeMemory,
} from '../../../nodes/AirSign/trigger/knownStates';
import { isFinalStatus } from '../../../nodes/AirSign/trigger/sessionEvents';

const START = Date.parse('2030-03-04T05:06:07.890Z');
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

describe('the known states as stored', () => {
	it('round-trips statuses, recipients and the minute seen; short keys; JSON-safe', () => {
		const memory = newMemory(START);
		memory.picture = undefined;
		memory.known.set(sessionKey('A-1'), {
			status: 'pending',
			recipients: ['sent', 'completed'],
			seenAt: START + 90_500,
		});
		memory.known.set(sessionKey('b-2'), {
			status: 'someNewStatus',
			recipients: ['x y', undefined],
			seenAt: START,
		});
		const stored = storeMemory(memory, isFinalStatus, START + 5 * MINUTE);
		const back = readMemory(JSON.parse(JSON.stringify(stored)))!;
		expect(back.start).toBe(START);
		expect(back.picture).toBeUndefined();
		expect(back.known.get(sessionKey('a-1'))).toEqual({
			status: 'pending',
			recipients: ['sent', 'completed'],
			seenAt: Date.parse('2030-03-04T05:07:00.000Z'),
		});
		expect(back.known.get(sessionKey('B-2'))).toEqual({
			status: 'someNewStatus',
			recipients: ['x y', undefined],
			seenAt: Date.parse('2030-03-04T05:06:00.000Z'),
		});
		expect(sessionKey('A-1')).toHaveLength(7);
		expect(JSON.stringify(stored)).not.toMatch(/\\/);
	});

	it('forgets final states 25 hours after they were seen, keeps sessions in flight (to the day when old)', () => {
		const memory = newMemory(START);
		memory.known.set('done001', { status: 'completed', recipients: [], seenAt: START });
		memory.known.set('live001', {
			status: 'draft',
			recipients: ['notSent'],
			seenAt: START + 3 * MINUTE,
		});
		const soon = readMemory(
			storeMemory(memory, isFinalStatus, START + TERMINAL_MEMORY_MS - MINUTE),
		)!;
		expect(soon.known.has('done001')).toBe(true);
		const later = readMemory(
			storeMemory(memory, isFinalStatus, START + TERMINAL_MEMORY_MS + 2 * MINUTE),
		)!;
		expect(later.known.has('done001')).toBe(false);
		expect(later.known.get('live001')?.seenAt).toBe(Date.parse('2030-03-04T00:00:00.000Z'));
		expect(readMemory(storeMemory(memory, isFinalStatus, START + 3 * DAY))!.known.size).toBe(1);
	});

	it('more distinct statuses than the dictionary holds: the extra recipient statuses compare with nothing, extra session statuses are forgotten', () => {
		const memory = newMemory(START);
		for (let i = 0; i < 70; i++)
			memory.known.set(sessionKey(i), { status: `s${i}`, recipients: [`r${i}`], seenAt: START });
		const back = readMemory(storeMemory(memory, isFinalStatus, START))!;
		expect(back.known.size).toBeLessThan(70);
		for (const state of back.known.values())
			expect(state.recipients[0] === undefined || state.recipients[0].startsWith('r')).toBe(true);
	});

	it('anything unreadable is no memory (the trigger starts a new one)', () => {
		expect(readMemory(undefined)).toBeUndefined();
		expect(readMemory({ start: 'nope', codes: [], known: {} })).toBeUndefined();
		expect(readMemory([])).toBeUndefined();
	});
});
