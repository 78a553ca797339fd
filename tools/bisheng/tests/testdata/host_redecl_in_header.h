// Declares again, after host_redecl_in_header.asc's kernel, a function the source declared
// before it: a clash inside a header, which bisheng leaves for the user.
void GenerateTiling(unsigned n, unsigned* out);
