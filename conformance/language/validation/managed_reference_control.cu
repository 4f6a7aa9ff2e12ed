// Control of managed_reference.cu: a __managed__ variable of object type.
int target;
__managed__ int value = 1;
