import type { INodeProperties, INodePropertyMode } from 'n8n-workflow';

import { EMAIL_PATTERN, LIST_SESSIONS_HOURLY_BUDGET, UUID } from '../helpers/constants';

type Kind = 'session' | 'template' | 'recipient';

/** A typed mode: what it shows, and the pattern the editor checks (n8n anchors it at both ends). */
interface TypedMode {
	mode: Pick<INodePropertyMode, 'displayName' | 'name' | 'placeholder'>;
	regex: string;
	errorMessage: string;
}

const idMode = (kind: Kind): TypedMode => ({
	mode: {
		displayName: 'By ID',
		name: 'id',
		placeholder: 'e.g. 3f2b8a1e-7c4d-4e8f-9a0b-1c2d3e4f5a6b',
	},
	regex: `\\s*${UUID}\\s*`,
	errorMessage: `Not an AirSign ${kind} ID`,
});

const urlMode = (kind: Kind, urlExample: string): TypedMode => ({
	mode: {
		displayName: 'By URL',
		name: 'url',
		placeholder: `e.g. the ${urlExample} AirSign gave for it`,
	},
	regex: `\\s*https?://.*${UUID}.*`,
	errorMessage: `Not a link that holds an AirSign ${kind} ID`,
});

const emailMode: TypedMode = {
	mode: { displayName: 'By Email', name: 'email', placeholder: 'e.g. nathan@example.com' },
	regex: `\\s*${EMAIL_PATTERN.source.slice(1, -1)}\\s*`,
	errorMessage: 'Not an email address',
};

/** From List first, and the default (n8n's UX guidelines), then the typed modes. */
function locator(
	kind: Kind,
	list: { method: string; placeholder: string },
	typed: TypedMode[],
): INodeProperties {
	return {
		displayName: `${kind.charAt(0).toUpperCase()}${kind.slice(1)}`,
		name: `${kind}Id`,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: list.placeholder,
				typeOptions: { searchListMethod: list.method, searchable: true },
			},
			...typed.map(({ mode, regex, errorMessage }) => ({
				...mode,
				type: 'string' as const,
				validation: [{ type: 'regex' as const, properties: { regex, errorMessage } }],
			})),
		],
	};
}

export function sessionLocator(description: string): INodeProperties {
	return {
		...locator('session', { method: 'searchSessions', placeholder: 'Search sessions by name…' }, [
			urlMode('session', 'draftUrl'),
			idMode('session'),
		]),
		description,
		hint: `From List searches AirSign by name: each search or page is one List Sessions request, from the ${LIST_SESSIONS_HOURLY_BUDGET} an hour the organisation shares. By ID costs nothing.`,
	};
}

export function templateLocator(description: string): INodeProperties {
	return {
		...locator(
			'template',
			{ method: 'searchTemplates', placeholder: 'Choose an active template…' },
			[urlMode('template', 'editorUrl'), idMode('template')],
		),
		description,
	};
}

/** One recipient of the chosen session: From List and By ID give its recipientId, By Email its email. */
export function recipientLocator(description: string): INodeProperties {
	return {
		...locator('recipient', { method: 'searchRecipients', placeholder: 'Choose a recipient…' }, [
			idMode('recipient'),
			emailMode,
		]),
		// Not "recipientId": By Email holds an email.
		name: 'recipientLocator',
		description,
		hint: 'From List offers the recipients of the chosen session who can be reminded (who have not signed): one Get Session request each time the list opens.',
	};
}
