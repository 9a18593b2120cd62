"""The registered deck checks. Importing this package registers every check module."""
