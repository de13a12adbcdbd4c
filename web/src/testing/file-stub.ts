// Stands in for CSS and image imports under jest.
export default 'file-stub';
