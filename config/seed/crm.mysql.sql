-- The `crm` datasource of config/multi-datasource.yaml and config/compose.yaml: accounts, contacts,
-- deals and support tickets in MySQL or MariaDB. Run it once in an empty database:
--   mysql -e 'CREATE DATABASE crm' && mysql crm < config/seed/crm.mysql.sql      (or: npm run seed:examples)
-- docker-compose.yml runs it when the mysql volume is first created.

CREATE TABLE accounts (
  account_id INT PRIMARY KEY,
  name       VARCHAR(100) NOT NULL,
  industry   VARCHAR(50) NOT NULL,
  country    VARCHAR(50) NOT NULL
) COMMENT = 'Companies the sales team works with';

CREATE TABLE contacts (
  contact_id INT PRIMARY KEY,
  account_id INT NOT NULL,
  name       VARCHAR(100) NOT NULL,
  title      VARCHAR(100) NOT NULL,
  email      VARCHAR(100) NOT NULL,
  FOREIGN KEY (account_id) REFERENCES accounts (account_id)
) COMMENT = 'People at an account';

CREATE TABLE deals (
  deal_id    INT PRIMARY KEY,
  account_id INT NOT NULL,
  name       VARCHAR(100) NOT NULL,
  stage      ENUM('lead', 'proposal', 'won', 'lost') NOT NULL,
  amount_usd DECIMAL(12, 2) NOT NULL,
  closed_on  DATE NULL COMMENT 'Null while the deal is open',
  FOREIGN KEY (account_id) REFERENCES accounts (account_id)
) COMMENT = 'Sales opportunities and their outcome';

CREATE TABLE tickets (
  ticket_id  INT PRIMARY KEY,
  account_id INT NOT NULL,
  subject    VARCHAR(200) NOT NULL,
  priority   ENUM('low', 'normal', 'high') NOT NULL,
  status     ENUM('open', 'closed') NOT NULL,
  opened_on  DATE NOT NULL,
  FOREIGN KEY (account_id) REFERENCES accounts (account_id)
) COMMENT = 'Support tickets raised by accounts';

INSERT INTO accounts VALUES
  (1, 'Northwind Traders', 'Retail', 'United States'),
  (2, 'Contoso Pharma', 'Healthcare', 'Germany'),
  (3, 'Fabrikam Logistics', 'Transport', 'Netherlands'),
  (4, 'Tailspin Air', 'Transport', 'United Kingdom');

INSERT INTO contacts VALUES
  (1, 1, 'Nancy Davolio', 'Head of Purchasing', 'nancy@northwind.example'),
  (2, 1, 'Andrew Fuller', 'CFO', 'andrew@northwind.example'),
  (3, 2, 'Greta Berg', 'IT Director', 'greta@contoso.example'),
  (4, 3, 'Jan de Vries', 'Operations Lead', 'jan@fabrikam.example'),
  (5, 4, 'Olivia Shaw', 'Procurement', 'olivia@tailspin.example');

INSERT INTO deals VALUES
  (1, 1, 'Store analytics rollout', 'won', 48000.00, '2024-02-12'),
  (2, 2, 'Lab data warehouse', 'proposal', 120000.00, NULL),
  (3, 3, 'Route planning pilot', 'won', 15500.00, '2024-03-01'),
  (4, 4, 'Crew scheduling', 'lost', 67000.00, '2024-01-25'),
  (5, 1, 'Loyalty dashboard', 'lead', 9000.00, NULL);

INSERT INTO tickets VALUES
  (1, 1, 'Dashboard loads slowly', 'normal', 'closed', '2024-02-20'),
  (2, 1, 'Export to CSV fails for large reports', 'high', 'open', '2024-03-18'),
  (3, 3, 'Add a depot to the pilot', 'low', 'closed', '2024-03-05'),
  (4, 2, 'Single sign-on setup', 'normal', 'open', '2024-03-27');
