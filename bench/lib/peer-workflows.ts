/**
 * What an n8n user builds without this package: n8n's own HTTP Request node (V3, the version the
 * editor puts on a new node), configured as a capable user would, with a Header Auth credential
 * holding `Authorization: Bearer <token>` (a token fetched by hand: AirSign tokens live one hour and
 * n8n never renews a Header Auth value). Each builder returns the chain of nodes and what the user
 * had to configure.
 */
import type { IExecuteFunctions, INodeParameters, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { CredentialRef } from '../../test/harness/environment';
import type { N8nNodesBase } from './n8n-nodes-base';
import type { ChainNode } from './workflow';

export const HTTP_REQUEST_TYPE = 'n8n-nodes-base.httpRequest';

export interface PeerWorkflow {
	chain: ChainNode[];
	/** Nodes the user adds (the trigger or input before them not counted). */
	nodes: number;
	/** Parameters the user sets in those nodes, plus the fields of the credential they fill in. */
	fields: number;
}

/** Leaf values the user typed or picked (the saved parameters hold only values changed from the defaults). */
export function configuredFields(parameters: unknown): number {
	if (Array.isArray(parameters))
		return parameters.reduce((sum, value) => sum + configuredFields(value), 0);
	if (typeof parameters === 'object' && parameters !== null)
		return Object.values(parameters).reduce<number>(
			(sum, value) => sum + configuredFields(value),
			0,
		);
	return 1;
}

/** Header Auth: Name = Authorization, Value = Bearer <token>. */
export const HEADER_AUTH_FIELDS = 2;

function httpRequest(
	base: N8nNodesBase,
	credential: CredentialRef,
	parameters: INodeParameters,
): ChainNode {
	return {
		name: 'HTTP Request',
		type: HTTP_REQUEST_TYPE,
		nodeType: base.httpRequest,
		parameters: {
			authentication: 'genericCredentialType',
			genericAuthType: 'httpHeaderAuth',
			...parameters,
		},
		credentials: { httpHeaderAuth: credential },
	};
}

function workflow(chain: ChainNode[]): PeerWorkflow {
	return {
		chain,
		nodes: chain.length,
		fields: chain.reduce(
			(sum, node) => sum + configuredFields(node.parameters),
			HEADER_AUTH_FIELDS,
		),
	};
}

/**
 * List Sessions, every page: pages of 100 by `offset`, stopping on `hasMore: false` (the
 * "Pagination Complete When: Other" expression; "Response Is Empty" would cost one more request
 * per run), then Split Out to get one item per session as Return All gives.
 */
export function peerListAll(
	base: N8nNodesBase,
	credential: CredentialRef,
	baseUrl: string,
): PeerWorkflow {
	return workflow([
		httpRequest(base, credential, {
			url: `${baseUrl}/api/v1/Sessions`,
			sendQuery: true,
			queryParameters: { parameters: [{ name: 'limit', value: '100' }] },
			options: {
				pagination: {
					pagination: {
						paginationMode: 'updateAParameterInEachRequest',
						parameters: {
							parameters: [
								{
									type: 'qs',
									name: 'offset',
									value: '={{ $response.body.pagination.offset + $response.body.sessions.length }}',
								},
							],
						},
						paginationCompleteWhen: 'other',
						completeExpression: '={{ !$response.body.pagination.hasMore }}',
					},
				},
			},
		}),
		{
			name: 'Split Out',
			type: 'n8n-nodes-base.splitOut',
			nodeType: base.splitOut,
			parameters: { fieldToSplitOut: 'sessions' },
		},
	]);
}

/** Send Session per item: POST with the ID from the item in the URL. */
export function peerSend(
	base: N8nNodesBase,
	credential: CredentialRef,
	baseUrl: string,
): PeerWorkflow {
	return workflow([
		httpRequest(base, credential, {
			method: 'POST',
			url: `=${baseUrl}/api/v1/Session/{{ $json.sessionId }}/Send`,
		}),
	]);
}

/**
 * Upload File: a JSON body `{ fileName, data }` with the binary's base64 taken by expression.
 * `$input.item.binary.data.data` is the base64 text in n8n's default binary mode (the bench's;
 * `$binary.data.data` is not: n8n's `$binary` leaves `data` out); in filesystem or S3 mode it is a
 * reference and the user needs Extract From File ("Move File to Base64 String") or a Code node first.
 */
export function peerUpload(
	base: N8nNodesBase,
	credential: CredentialRef,
	baseUrl: string,
): PeerWorkflow {
	return workflow([
		httpRequest(base, credential, {
			method: 'POST',
			url: `${baseUrl}/api/v1/File`,
			sendBody: true,
			bodyParameters: {
				parameters: [
					{ name: 'fileName', value: '={{ $binary.data.fileName }}' },
					{ name: 'data', value: '={{ $input.item.binary.data.data }}' },
				],
			},
		}),
	]);
}

/**
 * The trigger's idle poll, by hand: a Schedule Trigger → HTTP Request asking for sessions updated
 * since a time kept somewhere (here a fixed one); what keeps that time, ties and paging is left to
 * the user. Only the request is measured.
 */
export function peerPoll(
	base: N8nNodesBase,
	credential: CredentialRef,
	baseUrl: string,
	updatedAfter: string,
): PeerWorkflow {
	return workflow([
		httpRequest(base, credential, {
			url: `${baseUrl}/api/v1/Sessions`,
			sendQuery: true,
			queryParameters: {
				parameters: [
					{ name: 'updatedAfter', value: updatedAfter },
					{ name: 'sortBy', value: 'updatedAt' },
					{ name: 'sortOrder', value: 'asc' },
					{ name: 'limit', value: '100' },
				],
			},
		}),
	]);
}

/**
 * Upload File on n8n 2 (filesystem or database binary mode), where the item holds a reference,
 * not the base64 text: Extract From File ("Move File to Base64 String", the file's base64 into
 * `json.data`), then HTTP Request with the JSON body `{ fileName, data: {{ $json.data }} }`.
 * Two nodes. Extract From File does not load in the bench's n8n install (see n8n-nodes-base.ts),
 * so a stand-in does what its "binaryToPropery" operation does: getBinaryDataBuffer, then
 * `toString('base64')` into the item's JSON.
 */
export function peerUploadFromStorage(
	base: N8nNodesBase,
	credential: CredentialRef,
	baseUrl: string,
): PeerWorkflow {
	return {
		chain: [
			{
				name: 'Extract From File',
				type: 'bench.extractFromFileToBase64',
				nodeType: moveFileToBase64,
				parameters: {},
			},
			httpRequest(base, credential, {
				method: 'POST',
				url: `${baseUrl}/api/v1/File`,
				sendBody: true,
				bodyParameters: {
					parameters: [
						{ name: 'fileName', value: '={{ $json.fileName }}' },
						{ name: 'data', value: '={{ $json.data }}' },
					],
				},
			}),
		],
		nodes: 2,
		// Extract From File: operation, destination key; HTTP Request as in peerUpload.
		fields: 2 + peerUpload(base, credential, baseUrl).fields,
	};
}

const moveFileToBase64: INodeType = {
	description: {
		displayName: 'Extract From File (stand-in)',
		name: 'extractFromFileToBase64',
		group: ['transform'],
		version: 1,
		description: 'Move File to Base64 String',
		defaults: { name: 'Extract From File' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	},
	async execute(this: IExecuteFunctions) {
		const items = this.getInputData();
		const out = [];
		for (let i = 0; i < items.length; i++) {
			const buffer = await this.helpers.getBinaryDataBuffer(i, 'data');
			out.push({
				json: { fileName: items[i].binary?.data?.fileName, data: buffer.toString('base64') },
				pairedItem: { item: i },
			});
		}
		return [out];
	},
};
