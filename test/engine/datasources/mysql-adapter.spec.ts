import { adapterContract } from '../../support/datasources/adapter-contract';
import { MYSQL_SQL } from '../../support/datasources/mysql-sql';

adapterContract(MYSQL_SQL);
