import type { ServerResponse } from 'node:http';

import type { Reply } from './http';
import type { Fault, FuzzedAnswer } from './types';

/**
 * The fuzzing faults: `answer` replaces AirSign's answer with any status, headers and body text
 * (HTML, truncated JSON, huge bodies...); `mangle` lets the request be handled (its effects happen)
 * and then edits the real answer (fields missing, of the wrong type, extra; the body cut short).
 * Tests generate the answers (test/fuzz); the sandbox only serves them, byte for byte.
 */
export interface FuzzedReply {
	status: number;
	headers: Record<string, string>;
	bytes: Buffer;
}

export function fuzzedReply(fault: Fault, real?: Reply): FuzzedReply {
	const answer: FuzzedAnswer = fault.answer ?? {};
	let body = answer.body;
	if (body === undefined && real !== undefined) {
		let value: unknown = real.rawBody ?? structuredClone(real.body);
		for (const edit of answer.edits ?? []) value = applyEdit(value, edit);
		body = real.rawBody !== undefined && !answer.edits?.length ? real.rawBody : stringify(value);
	}
	let bytes = Buffer.from(body ?? '', 'utf8');
	if (answer.truncateAt !== undefined) bytes = bytes.subarray(0, Math.max(0, answer.truncateAt));
	return {
		status: answer.status ?? real?.status ?? 200,
		headers: { ...real?.headers, ...answer.headers },
		bytes,
	};
}

function stringify(value: unknown): string {
	return value === undefined ? '' : (JSON.stringify(value) ?? '');
}

function applyEdit(root: unknown, edit: NonNullable<FuzzedAnswer['edits']>[number]): unknown {
	if (edit.path.length === 0) return edit.delete ? undefined : edit.value;
	let parent: unknown = root;
	for (const step of edit.path.slice(0, -1)) {
		if (parent === null || typeof parent !== 'object') return root;
		parent = (parent as Record<string | number, unknown>)[step];
	}
	if (parent === null || typeof parent !== 'object') return root;
	const last = edit.path[edit.path.length - 1];
	if (edit.delete) delete (parent as Record<string | number, unknown>)[last];
	else (parent as Record<string | number, unknown>)[last] = edit.value;
	return root;
}

/** Writes a fuzzed reply: its headers replace the sandbox's (any case), `date` sets or removes Date. */
export function writeFuzzedReply(
	res: ServerResponse,
	reply: FuzzedReply,
	answer: FuzzedAnswer = {},
): void {
	const payload = reply.bytes;
	if (answer.date === null) {
		res.removeHeader('Date');
		res.sendDate = false;
	} else if (answer.date !== undefined) {
		res.setHeader('Date', answer.date);
	}
	const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
	for (const [name, value] of Object.entries(reply.headers ?? {}))
		headers[name.toLowerCase()] = value;
	headers['content-length'] = String(payload.length);
	for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
	res.writeHead(reply.status);
	res.end(payload);
}
