import type { ILoadOptionsFunctions, ResourceMapperFields } from 'n8n-workflow';

import { failer } from '../errors/nodeError';
import { readLocatorId } from '../helpers/validation';
import { templateFields } from '../actions/session/templateFields';
import { getTemplate } from '../transport/templates';

export async function getTemplateFields(
	this: ILoadOptionsFunctions,
): Promise<ResourceMapperFields> {
	let templateId: string;
	try {
		const given = this.getNodeParameter('templateId', '');
		templateId = readLocatorId(given, 'template', failer(this.getNode(), 0));
	} catch {
		// No template chosen yet, or one given by an expression the editor cannot resolve.
		return {
			fields: [],
			emptyFieldsNotice:
				'Choose a template (From List, By URL or By ID) to load its recipients and variables. A template given by an expression is read when the workflow runs.',
		};
	}
	// The editor does not wait for the rate limit.
	const fields = templateFields(await getTemplate(this, templateId, 0, 0));
	return {
		fields,
		...(fields.length === 0 && {
			emptyFieldsNotice: 'This template has no recipient roles or variables to fill in.',
		}),
	};
}
