import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { templateLocator } from '../../descriptions/locators';
import { itemOptions, maxRateLimitWaitMs, optionsCollection } from '../../descriptions/options';
import { failer } from '../../errors/nodeError';
import { readLocatorId } from '../../helpers/validation';
import { getTemplate } from '../../transport/templates';
import { identifyByParameters } from '../itemIdentity';
import type { ShapeName } from '../shapes';

export const description: INodeProperties[] = [
	templateLocator('The template to read'),
	optionsCollection(itemOptions),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const given = this.getNodeParameter('templateId', itemIndex);
	const templateId = readLocatorId(given, 'template', failer(this.getNode(), itemIndex));
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return [await getTemplate(this, templateId, itemIndex, maxRateLimitWaitMs(this, options))];
}

export const identify = identifyByParameters('templateId');

/** Its items are templates: Simplify and a tool's Output apply (actions/shapes.ts). */
export const output: ShapeName = 'template';
