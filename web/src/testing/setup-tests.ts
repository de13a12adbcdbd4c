// Runs after the jsdom environment is set up, before each web test file.
import '@testing-library/jest-dom';
