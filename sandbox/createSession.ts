import { randomUUID } from 'node:crypto';
import { checkSignatureBlocks, validateBlockDocument } from './blocks';
import type { SandboxContext } from './context';
import { ApiProblem, invalid, isPlainObject, json, type Reply, UUID_PATTERN } from './http';
import type { BlockDocument } from './publicTypes';
import { createdSession } from './responses';
import { markSent } from './sendSession';
import {
	bodyObject,
	checkBoolean,
	checkEmail,
	checkName,
	enforceSettings,
	parseSettings,
} from './sessionSettings';
import { checkSigningOrder, parseRecipientList } from './recipientList';
import { fileNameOf } from './templateStore';
import type { SessionFile } from './types';

const MAX_FILES = 10;

/**
 * docs/api.md#create-session, checked in body order: name, files (each, then "at least one block
 * document", then uploaded files exist), recipients, signature blocks against the keys,
 * settings; then the plan (403). A draft unless sendImmediately.
 */
export function createSession(ctx: SandboxContext, orgId: string, raw: Buffer): Reply {
	const body = bodyObject(raw);
	const name = checkName(body.name);

	const files = body.files;
	if (!Array.isArray(files) || files.length < 1 || files.length > MAX_FILES)
		throw invalid('files', `files must be an array of 1 to ${MAX_FILES} entries`);
	const documents: Array<{ document: BlockDocument; field: string }> = [];
	const sessionFiles: SessionFile[] = files.map((entry, index) => {
		const field = `files[${index}]`;
		if (!isPlainObject(entry)) throw invalid(field, 'a file entry must be an object');
		if (entry.type === 'blocks') {
			const document = validateBlockDocument(entry.document, `${field}.document`);
			documents.push({ document, field: `${field}.document` });
			return {
				type: 'blocks',
				fileId: randomUUID(),
				fileName: fileNameOf(document),
				document: structuredClone(document),
			};
		}
		if (entry.type === 'uploadedPdf') {
			if (typeof entry.fileId !== 'string' || !UUID_PATTERN.test(entry.fileId))
				throw invalid(`${field}.fileId`, 'fileId must be the UUID of an uploaded file');
			if (entry.fileName !== undefined && typeof entry.fileName !== 'string')
				throw invalid(`${field}.fileName`, 'fileName must be text');
			return {
				type: 'uploadedPdf',
				fileId: entry.fileId.toLowerCase(),
				...(typeof entry.fileName === 'string' && { fileName: entry.fileName }),
			};
		}
		throw invalid(`${field}.type`, 'type must be "blocks" or "uploadedPdf"');
	});
	if (documents.length === 0) {
		throw new ApiProblem(
			400,
			'NO_BLOCK_DOCUMENT',
			'files needs at least one block document: signature fields live only on block documents',
			'files',
		);
	}
	sessionFiles.forEach((file, index) => {
		if (file.type !== 'uploadedPdf') return;
		const stored = ctx.store.files.get(file.fileId);
		if (!stored || stored.orgId !== orgId) {
			throw new ApiProblem(
				400,
				'FILE_NOT_FOUND',
				`No uploaded file ${file.fileId} in this organisation`,
				`files[${index}].fileId`,
			);
		}
	});

	const recipients = parseRecipients(body.recipients);
	checkSignatureBlocks(
		documents,
		recipients.map((r) => r.key),
		'recipients',
	);
	const sendImmediately = checkBoolean(body.sendImmediately, 'sendImmediately') ?? false;
	const settings = parseSettings(body, false);
	enforceSettings(settings, ctx.orgs, orgId);

	const record = ctx.store.createSession({
		orgId,
		name,
		status: 'draft',
		recipients: recipients.map(({ name: n, email, signingOrder }) => ({
			name: n,
			email,
			signingOrder,
		})),
		files: sessionFiles,
		expiryDays: settings.expiryDays ?? null,
		settings: {
			reminderEnabled: settings.reminderEnabled ?? null,
			reminderFrequency: settings.reminderFrequency ?? null,
		},
	});
	const session = ctx.store.sessions.get(record.sessionId)!;
	if (sendImmediately) markSent(ctx.store, session);
	return json(200, createdSession(ctx.store, ctx.baseUrl, session));
}

interface ParsedRecipient {
	key: string;
	name: string;
	email: string;
	signingOrder?: number;
}

function parseRecipients(value: unknown): ParsedRecipient[] {
	return parseRecipientList(value, ({ name, email, signingOrder }, field, key) => {
		if (typeof name !== 'string' || name.trim() === '')
			throw invalid(`${field}.name`, 'name is required');
		const parsed: ParsedRecipient = { key, name, email: checkEmail(email, `${field}.email`) };
		const order = checkSigningOrder(signingOrder, field);
		if (order !== undefined) parsed.signingOrder = order;
		return parsed;
	});
}
