export {
  AppError,
  badRequest,
  conflict,
  forbidden,
  notFound,
  unauthorized,
  validationFailed,
  type ErrorDetail,
} from './app-error';
