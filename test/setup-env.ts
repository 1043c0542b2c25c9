// Tests read log lines through their own transports; the console stays quiet unless asked.
process.env.NL2SQL_LOG_LEVEL ??= process.env.NL2SQL_TEST_LOG_LEVEL ?? 'error';
