/**
 * @deprecated Kept while other branches still import it: use `enveloped` from './endpoint' and `errorBody`
 * from './errors'.
 */
export { enveloped as envelope } from './endpoint';
export { type ErrorBody, errorBody } from './errors';
