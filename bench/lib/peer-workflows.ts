/** What users build without this package: HTTP Request (V3) with Header Auth `Bearer <token>`. */
import type { IExecuteFunctions, INodeParameters, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { CredentialRef } from '../../test/harness/environment';
import type { ChainNode, EngineContext } from './engine';
import type { N8nNodesBase } from './n8n-nodes-base';
import { loadN8nNodesBase } from './n8n-nodes-base';

export interface PeerEnvironment {
	base: N8nNodesBase;
	/** Header Auth: `Authorization: Bearer <token>`. */
	credential: CredentialRef;
	baseUrl: string;
}

/** The HTTP Request side's credential and node types in the bench's simulated n8n instance. */
export async function peerEnvironment(
	engine: EngineContext,
	token: string,
	baseUrl: string,
): Promise<PeerEnvironment> {
	const base = loadN8nNodesBase();
	if (!engine.env.credentialTypes.has(base.httpHeaderAuth.name))
		engine.env.credentialTypes.add(base.httpHeaderAuth);
	const credential = await engine.env.addCredential('httpHeaderAuth', {
		name: 'Authorization',
		value: `Bearer ${token}`,
	});
	return { base, credential, baseUrl };
}

export interface PeerWorkflow {
	chain: ChainNode[];
	/** Nodes the user adds (the trigger or input before them not counted). */
	nodes: number;
	/** Parameters the user sets in those nodes, plus the fields of the credential they fill in. */
	fields: number;
}

/** Leaf values the user typed or picked (the saved parameters hold only values changed from the defaults). */
export function configuredFields(parameters: unknown): number {
	if (typeof parameters !== 'object' || parameters === null) return 1;
	return Object.values(parameters).reduce<number>((sum, value) => sum + configuredFields(value), 0);
}

/** Header Auth: Name = Authorization, Value = Bearer <token>. */
const HEADER_AUTH_FIELDS = 2;

function httpRequest(peer: PeerEnvironment, parameters: INodeParameters): ChainNode {
	return {
		name: 'HTTP Request',
		type: 'n8n-nodes-base.httpRequest',
		nodeType: peer.base.httpRequest,
		parameters: {
			authentication: 'genericCredentialType',
			genericAuthType: 'httpHeaderAuth',
			...parameters,
		},
		credentials: { httpHeaderAuth: peer.credential },
	};
}

/** `nodes` of them are the user's, with `extraFields` set outside the chain's parameters. */
function workflow(chain: ChainNode[], extraFields = 0): PeerWorkflow {
	const fields = chain.reduce((sum, node) => sum + configuredFields(node.parameters), 0);
	return { chain, nodes: chain.length, fields: fields + extraFields + HEADER_AUTH_FIELDS };
}

/** List Sessions, pages of 100 by `offset` until `hasMore: false` ("Response Is Empty" costs one more request), then Split Out. */
export function peerListAll(peer: PeerEnvironment): PeerWorkflow {
	const offset = '={{ $response.body.pagination.offset + $response.body.sessions.length }}';
	return workflow([
		httpRequest(peer, {
			url: `${peer.baseUrl}/api/v1/Sessions`,
			sendQuery: true,
			queryParameters: { parameters: [{ name: 'limit', value: '100' }] },
			options: {
				pagination: {
					pagination: {
						paginationMode: 'updateAParameterInEachRequest',
						parameters: { parameters: [{ type: 'qs', name: 'offset', value: offset }] },
						paginationCompleteWhen: 'other',
						completeExpression: '={{ !$response.body.pagination.hasMore }}',
					},
				},
			},
		}),
		{
			name: 'Split Out',
			type: 'n8n-nodes-base.splitOut',
			nodeType: peer.base.splitOut,
			parameters: { fieldToSplitOut: 'sessions' },
		},
	]);
}

/** Send Session per item: POST with the ID from the item in the URL. */
export function peerSend(peer: PeerEnvironment): PeerWorkflow {
	const url = `=${peer.baseUrl}/api/v1/Session/{{ $json.sessionId }}/Send`;
	return workflow([httpRequest(peer, { method: 'POST', url })]);
}

/** Upload File: a JSON body `{ fileName, data }` from two expressions. */
function uploadRequest(peer: PeerEnvironment, fileName: string, data: string): ChainNode {
	return httpRequest(peer, {
		method: 'POST',
		url: `${peer.baseUrl}/api/v1/File`,
		sendBody: true,
		bodyParameters: {
			parameters: [
				{ name: 'fileName', value: fileName },
				{ name: 'data', value: data },
			],
		},
	});
}

/** Upload with the base64 by expression: `$input.item.binary.data.data` is that text only in n8n's default binary mode. */
export function peerUpload(peer: PeerEnvironment): PeerWorkflow {
	const data = '={{ $input.item.binary.data.data }}';
	return workflow([uploadRequest(peer, '={{ $binary.data.fileName }}', data)]);
}

/**
 * Upload on n8n 2: Extract From File ("Move File to Base64 String"; a stand-in, the real one does
 * not load here) then HTTP Request. Its two fields: operation, key.
 */
export function peerUploadFromStorage(peer: PeerEnvironment): PeerWorkflow {
	return workflow(
		[moveFileToBase64, uploadRequest(peer, '={{ $json.fileName }}', '={{ $json.data }}')],
		2,
	);
}

/** The trigger's idle poll by hand: HTTP Request for sessions updated since a time the user keeps (here fixed). */
export function peerPoll(peer: PeerEnvironment, updatedAfter: string): PeerWorkflow {
	const query = { updatedAfter, sortBy: 'updatedAt', sortOrder: 'asc', limit: '100' };
	return workflow([
		httpRequest(peer, {
			url: `${peer.baseUrl}/api/v1/Sessions`,
			sendQuery: true,
			queryParameters: {
				parameters: Object.entries(query).map(([name, value]) => ({ name, value })),
			},
		}),
	]);
}

/** A node of its own: `execute` on its input (the memory bench's stand-ins and markers). */
export function benchNode(name: string, execute: INodeType['execute']): ChainNode {
	const type = `bench.${name.replace(/\W/g, '')}`;
	const nodeType: INodeType = {
		description: {
			displayName: name,
			name: name.replace(/\W/g, ''),
			group: ['transform'],
			version: 1,
			description: name,
			defaults: { name },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			properties: [],
		},
		execute,
	};
	return { name, type, nodeType, parameters: {} };
}

const moveFileToBase64 = benchNode('Extract From File', async function (this: IExecuteFunctions) {
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
});
