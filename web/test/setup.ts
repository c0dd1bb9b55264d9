import { configure } from '@testing-library/react';

// findBy*/waitFor wait up to 1 s by default; on a loaded 2-core CI machine a lazy chunk or a
// stand-in fetch can take longer to render, and a test would fail for the machine, not the code.
configure({ asyncUtilTimeout: 5000 });
