import type { DataNotice } from '../../core/publicdata/derived-documents.js';

/**
 * The terms of the embedded sample catalogue, named in the first line of the food db download. The catalogue is
 * written for this service (scripts/generate-food-catalogue.ts): offered under CC BY 4.0. A real feed brings
 * its own notice with its own source.
 */
export const SAMPLE_CATALOGUE_NOTICE: DataNotice = {
  licence: 'CC-BY-4.0',
  licenceUrl: 'https://creativecommons.org/licenses/by/4.0/',
  sources: ['Sample food catalogue shipped with the Dinner planner service (scripts/generate-food-catalogue.ts)'],
  attribution: 'Dinner planner contributors, sample food catalogue (CC BY 4.0)',
  note: 'Illustrative sample data: the products, EAN codes and chain list prices are generated, not observed in shops.',
};
