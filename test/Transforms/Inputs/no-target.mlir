// A module that describes nothing: used to test the diagnostic.
module {}
