export {
  AppError,
  badRequest,
  conflict,
  forbidden,
  notFound,
  unauthorized,
  unavailable,
  validationFailed,
  type ErrorDetail,
} from './app-error';
