/** A minimal CLI `NodeTypes`: types by full name (`<package>.<name>`); versions by n8n-workflow. */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeParameters,
	INodeType,
	INodeTypes,
	IVersionedNodeType,
} from 'n8n-workflow';
import { NodeHelpers, UnexpectedError } from 'n8n-workflow';

import packageJson from '../../package.json';
import type { CredentialRef, EntryOptions } from './environment';
import type { BinaryDataMode } from './engine';

/** The package name of this repository, the prefix n8n gives to its node types. */
export const PACKAGE_NAME: string = packageJson.name;

/** `n8n-nodes-airsign.airSign` for a node whose description name is `airSign`. */
export function fullNodeTypeName(nodeType: INodeType | IVersionedNodeType): string {
	const { name } = nodeType.description;
	return name.includes('.') ? name : `${PACKAGE_NAME}.${name}`;
}

/** Latest version of a node type (what the editor puts on a new node). */
export function latestVersion(nodeType: INodeType | IVersionedNodeType): number {
	if ('nodeVersions' in nodeType) {
		return nodeType.currentVersion ?? Math.max(...Object.keys(nodeType.nodeVersions).map(Number));
	}
	const { version } = nodeType.description;
	return Array.isArray(version) ? Math.max(...version) : version;
}

/** What runNode and createPollingHarness are told of the node under test. */
export interface NodeUnderTest extends EntryOptions {
	nodeType: INodeType | IVersionedNodeType;
	/** As saved in a workflow; values may be expressions (`={{ $json.x }}`). */
	parameters?: INodeParameters;
	/** Refs from `env.addCredential(...)`, or plain data (stored in `env` on the fly). */
	credentials?: Record<string, CredentialRef | ICredentialDataDecryptedObject>;
	/** Default: the latest version. */
	nodeTypeVersion?: number;
	nodeName?: string;
	/** The workflow's; default 'UTC'. */
	timezone?: string;
	binaryDataMode?: BinaryDataMode;
}

/** `INodeTypes` that answer every name with `nodeType`. */
export const singleTypeNodeTypes = (nodeType: INodeType) => ({
	getKnownTypes: () => ({}),
	getByName: () => nodeType,
	getByNameAndVersion: () => nodeType,
});

export class HarnessNodeTypes implements INodeTypes {
	private readonly types = new Map<string, INodeType | IVersionedNodeType>();

	/** `onNodeError` sees the error a node's `execute`/`poll` throws, before the engine keeps a copy. */
	constructor(private readonly onNodeError?: (error: unknown) => void) {}

	/** Registers the node under test; returns it as it sits in the workflow. */
	addNode(options: NodeUnderTest, id: string, defaultName: string): INode {
		const type = fullNodeTypeName(options.nodeType);
		this.add(type, options.nodeType);
		return {
			id,
			name: options.nodeName ?? defaultName,
			type,
			typeVersion: options.nodeTypeVersion ?? latestVersion(options.nodeType),
			position: [0, 0],
			parameters: structuredClone(options.parameters ?? {}),
		};
	}

	add(typeName: string, nodeType: INodeType | IVersionedNodeType): this {
		this.types.set(typeName, nodeType);
		return this;
	}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		const type = this.types.get(nodeType);
		if (!type) throw new UnexpectedError(`Unknown node type "${nodeType}"`);
		return type;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		const resolved = NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
		return this.observe(resolved);
	}

	getKnownTypes(): IDataObject {
		return {};
	}

	/** The type through a prototype link, `execute` and `poll` rethrowing after the observer. */
	private observe(nodeType: INodeType): INodeType {
		const { onNodeError } = this;
		if (!onNodeError) return nodeType;
		const wrapped = Object.create(nodeType) as INodeType;
		for (const method of ['execute', 'poll'] as const) {
			const original = nodeType[method] as ((...args: unknown[]) => Promise<unknown>) | undefined;
			if (typeof original !== 'function') continue;
			Object.defineProperty(wrapped, method, {
				value: async function (this: unknown, ...args: unknown[]) {
					try {
						return await original.apply(this, args);
					} catch (error) {
						onNodeError(error);
						throw error;
					}
				},
			});
		}
		return wrapped;
	}
}
