-- Joins: inner, outer, comma, self, multi-table, NULL join keys, derived tables, NATURAL, STRAIGHT_JOIN.

-- setup: departments, employees, projects, assignments
CREATE TABLE dept (
  id INT PRIMARY KEY,
  name VARCHAR(20) NOT NULL,
  city VARCHAR(20)
);
CREATE TABLE emp (
  id INT PRIMARY KEY,
  name VARCHAR(20) NOT NULL,
  dept_id INT,
  manager_id INT,
  salary DECIMAL(8,2)
);
CREATE TABLE proj (
  id INT PRIMARY KEY,
  title VARCHAR(20) NOT NULL,
  dept_id INT
);
CREATE TABLE assign (
  emp_id INT NOT NULL,
  proj_id INT NOT NULL,
  hours INT,
  PRIMARY KEY (emp_id, proj_id)
);
INSERT INTO dept VALUES (1, 'Sales', 'Paris'), (2, 'Research', 'Berlin'), (3, 'Support', NULL), (4, 'Legal', 'Paris');
INSERT INTO emp VALUES
  (1, 'Alice', 1, NULL, 5000.00),
  (2, 'Bob', 1, 1, 3200.50),
  (3, 'Carol', 2, 1, 4100.00),
  (4, 'Dave', 2, 3, 2900.00),
  (5, 'Eve', NULL, 1, 3000.00),
  (6, 'Frank', 3, 3, NULL),
  (7, 'Grace', 9, NULL, 2500.25);
INSERT INTO proj VALUES (10, 'Apollo', 1), (11, 'Borealis', 2), (12, 'Cygnus', 2), (13, 'Draco', NULL), (14, 'Erebus', 4);
INSERT INTO assign VALUES (1, 10, 20), (2, 10, 15), (3, 11, 30), (3, 12, 5), (4, 12, NULL), (6, 13, 8), (7, 14, 12);

-- inner join with ON
SELECT e.name, d.name AS dept FROM emp e JOIN dept d ON e.dept_id = d.id;
SELECT e.name, d.name AS dept FROM emp e INNER JOIN dept d ON d.id = e.dept_id WHERE d.city = 'Paris';
SELECT e.name, d.name AS dept FROM emp AS e CROSS JOIN dept AS d ON e.dept_id = d.id AND e.salary > 3000;
SELECT e.id, e.name FROM emp e JOIN dept d ON e.dept_id = d.id ORDER BY e.salary DESC, e.id;

-- join with no ON is a cross product
SELECT COUNT(*) AS n FROM emp JOIN dept;
SELECT d.name, p.title FROM dept d CROSS JOIN proj p WHERE d.id = 4;

-- comma join with WHERE
SELECT e.name, d.name AS dept FROM emp e, dept d WHERE e.dept_id = d.id AND d.id = 2;
SELECT e.name, p.title FROM emp e, assign a, proj p WHERE e.id = a.emp_id AND a.proj_id = p.id AND a.hours >= 15;

-- LEFT JOIN keeps unmatched left rows, with NULLs on the right
SELECT e.name, d.name AS dept FROM emp e LEFT JOIN dept d ON e.dept_id = d.id;
SELECT e.name, d.city FROM emp e LEFT OUTER JOIN dept d ON e.dept_id = d.id ORDER BY e.id;
SELECT e.name FROM emp e LEFT JOIN dept d ON e.dept_id = d.id WHERE d.id IS NULL;
SELECT d.name, COUNT(e.id) AS staff FROM dept d LEFT JOIN emp e ON e.dept_id = d.id GROUP BY d.id, d.name;

-- condition in ON vs in WHERE for a LEFT JOIN
SELECT d.name, e.name AS emp FROM dept d LEFT JOIN emp e ON e.dept_id = d.id AND e.salary > 3500;
SELECT d.name, e.name AS emp FROM dept d LEFT JOIN emp e ON e.dept_id = d.id WHERE e.salary > 3500;
SELECT d.name, e.name AS emp FROM dept d LEFT JOIN emp e ON e.dept_id = d.id AND d.city = 'Paris';

-- RIGHT JOIN
SELECT e.name, d.name AS dept FROM emp e RIGHT JOIN dept d ON e.dept_id = d.id;
SELECT d.name FROM emp e RIGHT OUTER JOIN dept d ON e.dept_id = d.id WHERE e.id IS NULL;
SELECT p.title, a.emp_id FROM assign a RIGHT JOIN proj p ON p.id = a.proj_id AND a.hours > 10;

-- USING
SELECT emp_id, proj_id, a.hours, b.hours AS h2 FROM assign a JOIN assign AS b USING (emp_id, proj_id) WHERE a.hours > 10;
SELECT * FROM dept JOIN emp USING (id);
SELECT id, emp.name, dept.name AS dept_name FROM emp LEFT JOIN dept USING (id);
SELECT id, emp.name, dept.city FROM dept RIGHT JOIN emp USING (id) WHERE emp.salary > 3000;
SELECT d.name, p.title FROM dept d JOIN proj p USING (id);
SELECT * FROM dept LEFT JOIN emp USING (id);
SELECT * FROM dept RIGHT JOIN emp USING (id);
SELECT dept.*, emp.id AS eid FROM dept JOIN emp USING (id);
SELECT id FROM dept JOIN emp USING (nosuch);
SELECT emp_id, COUNT(*) AS n FROM assign a JOIN assign b USING (emp_id) GROUP BY emp_id;

-- NATURAL JOIN on the common column names
CREATE TABLE color (cid INT, cname VARCHAR(10));
CREATE TABLE shade (cid INT, sname VARCHAR(10));
INSERT INTO color VALUES (1, 'red'), (2, 'green'), (3, 'blue'), (NULL, 'none');
INSERT INTO shade VALUES (1, 'crimson'), (1, 'scarlet'), (3, 'navy'), (4, 'teal'), (NULL, 'void');
SELECT * FROM color NATURAL JOIN shade;
SELECT cid, cname, sname FROM color NATURAL LEFT JOIN shade;
SELECT cid, cname, sname FROM color NATURAL RIGHT JOIN shade;
SELECT COUNT(*) AS n FROM color NATURAL JOIN shade;
SELECT * FROM color NATURAL LEFT JOIN shade;
SELECT * FROM color NATURAL RIGHT JOIN shade;
SELECT cid FROM color c NATURAL JOIN shade s WHERE s.sname LIKE 'n%';
SELECT * FROM color NATURAL JOIN dept;

-- NULLs in join columns never match, not even each other
SELECT c.cname, s.sname FROM color c JOIN shade s ON c.cid = s.cid;
SELECT c.cname, s.sname FROM color c LEFT JOIN shade s ON c.cid = s.cid;
SELECT c.cname, s.sname FROM color c JOIN shade s ON c.cid <=> s.cid;
SELECT c.cname, s.sname FROM color c JOIN shade s ON c.cid = s.cid OR (c.cid IS NULL AND s.cid IS NULL);
SELECT e.name, p.title FROM emp e JOIN proj p ON e.dept_id = p.dept_id;

-- self join: employee and manager
SELECT e.name, m.name AS manager FROM emp e JOIN emp m ON e.manager_id = m.id;
SELECT e.name, m.name AS manager FROM emp e LEFT JOIN emp m ON e.manager_id = m.id ORDER BY e.id;
SELECT m.name, COUNT(*) AS reports FROM emp e JOIN emp m ON e.manager_id = m.id GROUP BY m.id, m.name;
SELECT a.name, b.name AS other FROM emp a JOIN emp b ON a.dept_id = b.dept_id AND a.id < b.id;

-- three- and four-table joins
SELECT e.name, p.title, a.hours FROM emp e JOIN assign a ON a.emp_id = e.id JOIN proj p ON p.id = a.proj_id;
SELECT e.name, p.title, d.name AS proj_dept FROM emp e
  JOIN assign a ON a.emp_id = e.id
  JOIN proj p ON p.id = a.proj_id
  LEFT JOIN dept d ON d.id = p.dept_id;
SELECT e.name, ed.name AS emp_dept, p.title, pd.name AS proj_dept FROM emp e
  LEFT JOIN dept ed ON ed.id = e.dept_id
  JOIN assign a ON a.emp_id = e.id
  JOIN proj p ON p.id = a.proj_id
  LEFT JOIN dept pd ON pd.id = p.dept_id
WHERE ed.id IS NULL OR ed.id <> pd.id OR pd.id IS NULL;
SELECT d.name, p.title, e.name AS emp FROM dept d
  LEFT JOIN proj p ON p.dept_id = d.id
  LEFT JOIN assign a ON a.proj_id = p.id
  LEFT JOIN emp e ON e.id = a.emp_id;

-- parenthesised join trees
SELECT e.name, p.title FROM emp e LEFT JOIN (assign a JOIN proj p ON p.id = a.proj_id) ON a.emp_id = e.id;
SELECT e.name, p.title FROM emp e LEFT JOIN (assign a, proj p) ON a.emp_id = e.id AND p.id = a.proj_id AND p.dept_id = e.dept_id;
SELECT e.name, p.title, d.name FROM emp e LEFT JOIN (assign a JOIN proj p ON p.id = a.proj_id LEFT JOIN dept d ON d.id = p.dept_id AND d.city = 'Paris') ON a.emp_id = e.id;
SELECT e.name, p.title FROM emp e LEFT JOIN (assign a LEFT JOIN proj p ON p.id = a.proj_id AND p.dept_id = 2) ON a.emp_id = e.id WHERE p.id IS NULL;
SELECT e.name, a.hours FROM emp e LEFT JOIN (assign a JOIN proj p ON p.id = a.proj_id) ON a.emp_id = e.id AND a.hours > 10 WHERE e.salary > 1000;
SELECT COUNT(*), COUNT(p.id) FROM emp e LEFT JOIN (assign a JOIN (proj p JOIN dept d ON d.id = p.dept_id) ON p.id = a.proj_id) ON a.emp_id = e.id;
-- a RIGHT JOIN after other joins: its left side is a nested join
SELECT e.name, a.proj_id, d.name FROM emp e JOIN assign a ON a.emp_id = e.id RIGHT JOIN dept d ON d.id = e.dept_id;
SELECT e.name, p.title, d.name FROM emp e LEFT JOIN assign a ON a.emp_id = e.id LEFT JOIN proj p ON p.id = a.proj_id RIGHT JOIN dept d ON d.id = p.dept_id;
SELECT d.name, e.name FROM emp e JOIN assign a ON a.emp_id = e.id RIGHT JOIN dept d ON d.id = e.dept_id WHERE e.id IS NULL;
SELECT * FROM emp e RIGHT JOIN dept d ON d.id = e.dept_id RIGHT JOIN proj p ON p.dept_id = d.id;
SELECT * FROM dept JOIN proj USING (id) RIGHT JOIN emp USING (id);
-- a WHERE that rejects NULL-extended rows makes the outer join inner; one that does not, does not
SELECT e.name, d.name FROM emp e LEFT JOIN dept d ON d.id = e.dept_id WHERE d.city = 'Paris';
SELECT e.name, d.name FROM emp e LEFT JOIN dept d ON d.id = e.dept_id WHERE d.city IS NULL;
SELECT e.name, d.name FROM emp e LEFT JOIN dept d ON d.id = e.dept_id WHERE d.city <=> NULL;
SELECT e.name, d.name FROM emp e LEFT JOIN dept d ON d.id = e.dept_id WHERE d.city = 'Paris' OR e.id > 3;
SELECT e.name, d.name FROM emp e LEFT JOIN dept d ON d.id = e.dept_id WHERE COALESCE(d.city, 'Paris') = 'Paris';
SELECT e.name, p.title FROM emp e LEFT JOIN (assign a JOIN proj p ON p.id = a.proj_id) ON a.emp_id = e.id WHERE p.dept_id IN (1, 2);
SELECT e.name, p.title, d.name FROM emp e LEFT JOIN (assign a LEFT JOIN proj p ON p.id = a.proj_id) ON a.emp_id = e.id LEFT JOIN dept d ON d.id = p.dept_id WHERE a.hours BETWEEN 5 AND 40;
SELECT d.name, e.name FROM emp e RIGHT JOIN dept d ON d.id = e.dept_id WHERE e.salary > 1000;
SELECT COUNT(*) FROM emp x, (emp e JOIN assign a ON a.emp_id = e.id) RIGHT JOIN dept d ON d.id = e.dept_id WHERE x.id = e.id;
-- a correlated subquery on the NULL-extended side is checked after the join
SELECT e.name, a.proj_id FROM emp e LEFT JOIN assign a ON a.emp_id = e.id WHERE NOT EXISTS (SELECT 1 FROM proj p WHERE p.id = a.proj_id AND p.dept_id = 1);
SELECT e.name, a.proj_id FROM assign a RIGHT JOIN emp e ON a.emp_id = e.id WHERE 1 >= (SELECT COUNT(*) FROM proj p WHERE p.id < a.proj_id);

-- mixing comma and JOIN: the comma binds looser, so this ON cannot see e
SELECT e.name FROM emp e, assign a JOIN proj p ON p.id = a.proj_id AND e.id = a.emp_id;
SELECT e.name, p.title FROM (emp e, assign a) JOIN proj p ON p.id = a.proj_id AND e.id = a.emp_id;

-- ambiguous and unknown columns
SELECT id FROM emp JOIN dept ON emp.dept_id = dept.id;
SELECT name FROM emp e JOIN dept d ON e.dept_id = d.id;
SELECT e.name FROM emp e JOIN dept d ON e.dept_id = d.nosuch;
SELECT emp.name FROM emp e JOIN dept d ON e.dept_id = d.id;

-- joins against derived tables
SELECT d.name, t.total FROM dept d JOIN (SELECT dept_id, SUM(salary) AS total FROM emp GROUP BY dept_id) t ON t.dept_id = d.id;
SELECT d.name, t.n FROM dept d LEFT JOIN (SELECT dept_id, COUNT(*) AS n FROM proj GROUP BY dept_id) AS t ON t.dept_id = d.id;
SELECT x.name, y.title FROM (SELECT id, name FROM emp WHERE salary >= 3000) x JOIN (SELECT a.emp_id, p.title FROM assign a JOIN proj p ON p.id = a.proj_id) y ON y.emp_id = x.id;
SELECT t.dept_id, t.top FROM (SELECT dept_id, MAX(salary) AS top FROM emp GROUP BY dept_id) t JOIN emp e ON e.dept_id = t.dept_id AND e.salary = t.top;

-- STRAIGHT_JOIN
SELECT STRAIGHT_JOIN e.name, d.name AS dept FROM emp e JOIN dept d ON e.dept_id = d.id;
SELECT e.name, d.name AS dept FROM emp e STRAIGHT_JOIN dept d ON e.dept_id = d.id WHERE d.id < 3;
SELECT e.name, d.name AS dept FROM dept d STRAIGHT_JOIN emp e WHERE e.dept_id = d.id AND e.salary < 3500;

-- join + aggregate
SELECT d.name, SUM(a.hours) AS hours FROM dept d JOIN proj p ON p.dept_id = d.id JOIN assign a ON a.proj_id = p.id GROUP BY d.name;
SELECT e.name, COUNT(a.proj_id) AS projects, SUM(a.hours) AS hours FROM emp e LEFT JOIN assign a ON a.emp_id = e.id GROUP BY e.id, e.name;
SELECT p.title, COUNT(*) AS cnt, COUNT(a.hours) AS with_hours FROM proj p JOIN assign a ON a.proj_id = p.id GROUP BY p.title HAVING COUNT(*) > 1;
SELECT d.city, COUNT(DISTINCT e.id) AS staff, MAX(e.salary) AS top FROM dept d LEFT JOIN emp e ON e.dept_id = d.id GROUP BY d.city;
SELECT COUNT(*) AS n, SUM(e.salary) AS total FROM emp e JOIN dept d ON d.id = e.dept_id;
SELECT d.name, AVG(e.salary) AS avg_sal FROM dept d JOIN emp e ON e.dept_id = d.id GROUP BY d.name ORDER BY avg_sal DESC, d.name;

-- semi-join style with DISTINCT
SELECT DISTINCT d.name FROM dept d JOIN emp e ON e.dept_id = d.id;
SELECT DISTINCT e.name FROM emp e JOIN assign a ON a.emp_id = e.id JOIN proj p ON p.id = a.proj_id WHERE p.dept_id = 2;

-- join on expressions and inequalities
SELECT e.name, d.name AS dept FROM emp e JOIN dept d ON d.id = e.dept_id + 1;
SELECT a.name, b.name AS richer FROM emp a JOIN emp b ON b.salary > a.salary + 1000;
SELECT e.name, d.name AS dept FROM emp e JOIN dept d ON e.dept_id BETWEEN d.id - 1 AND d.id AND d.id = 2;

-- join to an empty table
CREATE TABLE empty_t (id INT, v INT);
SELECT e.name, t.v FROM emp e LEFT JOIN empty_t t ON t.id = e.id WHERE e.id < 3;
SELECT COUNT(*) AS n FROM emp e JOIN empty_t t ON t.id = e.id;
SELECT COUNT(*) AS n FROM emp e, empty_t t;
